-- The Fortune Teller: a reading gives what the run lacks most. Low on hull: hull; a small
-- collection: a blueprint; otherwise a gamble on money. `outcomes` gets the run as the player
-- sees it, the choice (1, 2, …) and the choice's own outcomes, and returns what happens.

return {
    outcomes = function(run, choice, outcomes)
        if choice ~= 1 then
            return outcomes
        end
        local paid = { money = -15 }
        if run.hull < run.max_hull / 2 then
            return { paid, { hull = 5 } }
        elseif #run.collection < 6 then
            return { paid, { blueprint = "common" } }
        elseif math.random() < 0.5 then
            return { paid, { money = 40 } }
        end
        return { paid }
    end,
}
