-- Void Leviathan: every `every` ticks, paralyzes the nearest building within `radius` tiles
-- (not the Hub) for `ticks` ticks. Ties go to the building with the lower id.

local every = require("lib/every")

return {
    on_spawn = every.start,

    on_tick = function(self, game)
        if not every.due(self, game) then
            return
        end
        local x, y = self:position()
        local radius = self:param("radius")
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
