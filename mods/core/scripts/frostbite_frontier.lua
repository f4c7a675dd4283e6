-- Frostbite Frontiers freeze the attackers in range with the built-in `freezing` effect
-- (speed × (1 - `slow`)), renewed every tick while they stay, and frozen attackers take
-- `energy` more energy damage. Two Frontiers do not freeze twice: the effect is kept once.

return {
    on_placed = function(self, game)
        game:modify("damage", -40, function(hit)
            local frozen = hit.target:effect("freezing")
            if frozen and frozen.source == self.entity and table.find(hit.types, "energy") then
                hit.amount *= 1 + self:param("energy")
            end
        end)
    end,

    on_tick = function(self, game)
        local x, y = self:position()
        for _, attacker in game:attackers_near(x, y, self:query("range")) do
            game:apply_effect(attacker, "freezing", {
                ticks = 1,
                magnitude = self:param("slow"),
                source = self.entity,
            })
        end
    end,
}
