-- Slime Queen: each time its HP falls past another 1/`parts` of its max HP, `count` attackers of
-- type `spawns` split off where it is. A hit that passes several marks splits for each.

return {
    on_spawn = function(self, game)
        self.split = 0
    end,

    on_tick = function(self, game)
        local parts = self:param("parts")
        local lost = 1 - self:hp() / self:max_hp()
        -- Marks passed so far; the last part is what `spawns_on_death` releases.
        local passed = math.min(math.floor(lost * parts), parts - 1)
        while self.split < passed do
            self.split += 1
            for _ = 1, self:param("count") do
                game:spawn(self:param("spawns"), self)
            end
        end
    end,
}
