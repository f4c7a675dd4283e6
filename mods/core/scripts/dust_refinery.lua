-- Dust Refineries: each one standing makes the blueprint cost `raise` materials more. The
-- modifier belongs to the refinery, so it goes when the refinery is removed.

return {
    on_placed = function(self, game)
        local mine = self:type()
        game:modify("blueprint_cost", -10, function(cost, stat)
            if stat.blueprint == mine then
                return { materials = cost.materials + self:param("raise"), energy = cost.energy }
            end
        end)
    end,
}
