-- Druids: every `every` ticks, heal each attacker within `radius` tiles (the druid too) by `heal`.

local every = require("lib/every")

return {
    on_spawn = every.start,

    on_tick = function(self, game)
        if not every.due(self, game) then
            return
        end
        local x, y = self:position()
        for _, attacker in game:attackers_near(x, y, self:param("radius")) do
            game:command("heal", { target = attacker, amount = self:param("heal"), source = self.entity })
        end
    end,
}
