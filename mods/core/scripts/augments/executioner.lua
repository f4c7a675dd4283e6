-- Executioner (an augment): this building's hits on an attacker below a quarter of its HP deal
-- double damage. Registered when the building is placed, so it leaves with it.

return {
    on_placed = function(self, game)
        -- After the shot's own modifiers (the sniper's -100), before shields (-1000 runs first
        -- only for what they absorb) and resistances.
        game:modify("damage", -90, function(hit)
            if hit.source ~= self.entity then
                return
            end
            if hit.target:hp() < hit.target:max_hp() / 4 then
                hit.amount *= 2
            end
        end)
    end,
}
