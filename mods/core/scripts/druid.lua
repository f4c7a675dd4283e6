-- Druids: every `every` ticks, heal each attacker within `radius` tiles (the druid too) by `heal`.

return {
    on_spawn = function(self, game)
        self.next = game:tick() + self:param("every")
    end,

    on_tick = function(self, game)
        if game:tick() < self.next then
            return
        end
        self.next += self:param("every")
        local x, y = self:position()
        for _, attacker in game:attackers_near(x, y, self:param("radius")) do
            game:command("heal", { target = attacker, amount = self:param("heal"), source = self.entity })
        end
    end,
}
