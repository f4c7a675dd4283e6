-- Surface Drills produce materials on mineral-rich tiles and fuel on fuel-rich ones: the
-- production the tile does not give is zeroed.

return {
    on_placed = function(self, game)
        local tile = game:tile(self:tile())
        local on_fuel = tile ~= nil and tile.obstacle == "fuel"
        local unused = if on_fuel then "material_production" else "fuel_production"
        self:modify(unused, 100, function()
            return 0
        end)
    end,
}
