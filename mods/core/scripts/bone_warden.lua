-- Bone Warden: every `every` ticks, a `shield` of `shield` HP for `ticks` ticks on each other
-- attacker within `radius` tiles.

local every = require("lib/every")

return {
    on_spawn = every.start,

    on_tick = function(self, game)
        if not every.due(self, game) then
            return
        end
        local x, y = self:position()
        for _, attacker in game:attackers_near(x, y, self:param("radius")) do
            if attacker ~= self.entity then
                game:apply_effect(attacker, "shield", {
                    ticks = self:param("ticks"),
                    magnitude = self:param("shield"),
                    source = self.entity,
                })
            end
        end
    end,
}
