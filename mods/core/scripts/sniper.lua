-- Snipers hit harder the farther the target: × 1 next to the tower, growing evenly to × `max`
-- at the edge of its range (and no more beyond it).

return {
    on_placed = function(self, game)
        -- The shot's own strength, before the target's shields and resistances (-100).
        game:modify("damage", -100, function(hit)
            if hit.source ~= self.entity then
                return
            end
            local tx, ty = self:position()
            local ax, ay = hit.target:position()
            local far = math.sqrt((ax - tx) ^ 2 + (ay - ty) ^ 2) / self:query("range")
            hit.amount *= 1 + (self:param("max") - 1) * math.min(far, 1)
        end)
    end,
}
