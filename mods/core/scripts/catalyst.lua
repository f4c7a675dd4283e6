-- Catalyst: the attackers within its radius when it is used are `catalyzed` until the wave
-- ends: they take `multiplier` × damage, and each one killed produces `materials`. An attacker
-- caught by two Catalysts counts once (the effect keeps its first source).

return {
    on_placed = function(self, game)
        local x, y = self:position()
        for _, attacker in game:attackers_near(x, y, self:query("radius")) do
            game:apply_effect(attacker, "catalyzed", { waves = 1, source = self.entity })
        end

        local function mine(attacker)
            local effect = attacker:effect("catalyzed")
            return effect ~= nil and effect.source == self.entity
        end
        -- These belong to the Catalyst, which stays (unseen) until the wave ends.
        game:modify("damage", -40, function(hit)
            if mine(hit.target) then
                hit.amount *= self:param("multiplier")
            end
        end)
        game:react("attacker_killed", 10, function(event)
            if mine(event.entity) then
                game:command("add_materials", { amount = self:param("materials"), source = self.entity })
            end
        end)
    end,
}
