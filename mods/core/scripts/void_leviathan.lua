-- Void Leviathan: every `every` ticks, paralyzes the nearest building within `radius` tiles
-- (not the Hub) for `ticks` ticks. Ties go to the building with the lower id.

local aura = require("lib/aura")

return {
    on_spawn = aura.start,

    on_tick = function(self, game)
        local x, y, radius = aura.pulse(self, game, "purple")
        if x == nil then
            return
        end
        local nearest, best = nil, radius * radius
        for _, building in game:entities("building") do
            if building:type() ~= "core:hub" then
                local bx, by = building:position()
                local d = (bx - x) ^ 2 + (by - y) ^ 2
                if d <= best and (nearest == nil or d < best or building.id < nearest.id) then
                    nearest, best = building, d
                end
            end
        end
        if nearest ~= nil then
            game:apply_effect(nearest, "paralyzed", { ticks = self:param("ticks"), source = self.entity })
        end
    end,
}
