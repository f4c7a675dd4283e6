-- Icicle Spire: every hit chills its target with the built-in `freezing` effect (speed
-- × (1 - `slow` × the `frost:chill_power` query)) for the blueprint's duration. A hit on an
-- attacker this spire has chilled deals `shatter` more damage and fires `frost:shattered`.

local function chilled_by(self, attacker)
    local chill = attacker:effect("freezing")
    return chill ~= nil and chill.source == self.entity
end

return {
    on_placed = function(self, game)
        -- A modifier: the extra damage belongs to the shot, so it comes before the target's
        -- resistances (-50), multipliers (-40) and shields (-10) change the hit.
        game:modify("damage", -60, function(hit)
            if hit.source == self.entity and chilled_by(self, hit.target) then
                hit.amount += self:param("shatter")
            end
        end)

        -- A reaction: once the hit has landed, tell other mods of a shatter, then (re)chill
        -- the target as hard as they let it.
        game:react("damage", 10, function(hit)
            if hit.source ~= self.entity then
                return
            end
            if chilled_by(self, hit.target) then
                game:event("frost:shattered", {
                    spire = self.entity,
                    target = hit.target,
                    bonus = self:param("shatter"),
                })
            end
            if hit.target:alive() then
                game:apply_effect(hit.target, "freezing", {
                    ticks = self:query("duration_ticks"),
                    magnitude = self:param("slow") * self:query("frost:chill_power"),
                    source = self.entity,
                })
            end
        end)
    end,
}
