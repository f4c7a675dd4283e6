-- Druids: every `every` ticks, heal each attacker within `radius` tiles (the druid too) by `heal`.

local aura = require("lib/aura")

return {
    on_spawn = aura.start,

    on_tick = function(self, game)
        for _, attacker in aura.attackers(self, game, "green") do
            game:command("heal", { target = attacker, amount = self:param("heal"), source = self.entity })
        end
    end,
}
