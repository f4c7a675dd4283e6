-- Coffins: every `every` ticks, release a `spawns` attacker that walks on from where the coffin
-- is. What is inside when it breaks comes from `spawns_on_death` in the RON file.

return {
    on_spawn = function(self, game)
        self.next = game:tick() + self:param("every")
    end,

    on_tick = function(self, game)
        if game:tick() >= self.next then
            self.next += self:param("every")
            game:spawn(self:param("spawns"), self)
        end
    end,
}
