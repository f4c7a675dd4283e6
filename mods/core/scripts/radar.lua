-- Radars: the buildings on the four tiles next to it get `bonus` more range. Each adjacent
-- Radar multiplies again.

return {
    on_placed = function(self, game)
        local rx, ry = self:tile()
        game:modify("range", 20, function(range, stat)
            local building = stat.entity
            if building == nil or building:kind() ~= "building" then
                return
            end
            local x, y = building:tile()
            if math.abs(x - rx) + math.abs(y - ry) == 1 then
                return range * (1 + self:param("bonus"))
            end
        end)
    end,
}
