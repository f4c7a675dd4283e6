-- Bone Warden: every `every` ticks, a `shield` of `shield` HP for `ticks` ticks on each other
-- attacker within `radius` tiles.

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
