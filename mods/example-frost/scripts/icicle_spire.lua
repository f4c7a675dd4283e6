-- Icicle Spire: every hit chills its target with the built-in `freezing` effect (speed
-- × (1 - `slow`)) for the blueprint's duration. A hit on an attacker this spire has chilled
-- deals `shatter` more damage.

return {
    on_placed = function(self, game)
        -- A modifier: the extra damage belongs to the shot, so it comes before the target's
        -- resistances (-50), multipliers (-40) and shields (-10) change the hit.
        game:modify("damage", -60, function(hit)
            if hit.source ~= self.entity then
                return
            end
            local chill = hit.target:effect("freezing")
            if chill ~= nil and chill.source == self.entity then
                hit.amount += self:param("shatter")
            end
        end)

        -- A reaction: once the hit has landed, (re)chill the target.
        game:react("damage", 10, function(hit)
            if hit.source == self.entity and hit.target:alive() then
                game:apply_effect(hit.target, "freezing", {
                    ticks = self:query("duration_ticks"),
                    magnitude = self:param("slow"),
                    source = self.entity,
                })
            end
        end)
    end,
}
