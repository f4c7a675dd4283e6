-- Coffins: every `every` ticks, release a `spawns` attacker that walks on from where the coffin
-- is. What is inside when it breaks comes from `spawns_on_death` in the RON file.

local every = require("lib/every")

return {
    on_spawn = every.start,

    on_tick = function(self, game)
        if every.due(self, game) then
            game:spawn(self:param("spawns"), self)
        end
    end,
}
