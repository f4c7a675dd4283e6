-- Solar Panels produce their blueprint's energy once for every level of height they stand at.
-- The lowest ground counts as the first level, so a panel down there still produces a little.

return {
    on_placed = function(self, game)
        local tile = game:tile(self:tile())
        self.levels = if tile then tile.level + 1 else 1
        self:modify("energy_production", 10, function(energy)
            return energy * self.levels
        end)
    end,
}
