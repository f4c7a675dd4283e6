-- Predators: every attacker one kills makes its hits `per_kill` stronger for the rest of the
-- battle. The damage shown in its info panel grows with it.

return {
    on_placed = function(self, game)
        self.kills = 0
        game:react("attacker_killed", 10, function(event)
            if event.other == self.entity then
                self.kills += 1
            end
        end)
        -- Flat bonuses come early (-10), before anything multiplies the damage.
        self:modify("hit_damage", -10, function(damage)
            return damage + self.kills * self:param("per_kill")
        end)
    end,
}
