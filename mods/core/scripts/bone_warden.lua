-- Bone Warden: every `every` ticks, a `shield` of `shield` HP for `ticks` ticks on each other
-- attacker within `radius` tiles.

local aura = require("lib/aura")

return {
    on_spawn = aura.start,

    on_tick = function(self, game)
        for _, attacker in aura.attackers(self, game, "cyan") do
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
