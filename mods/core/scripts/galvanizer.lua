-- Galvanizers: after `idle` ticks without firing, the next shot is charged. The charge is the
-- built-in `electrified` effect for one shot (`charge` extra energy damage); every bit of energy
-- damage the Galvanizer deals therefore comes from a charged shot, and each such hit produces
-- `energy` energy.

return {
    on_placed = function(self, game)
        self.idle = 0
        self:react("tower_fired", 10, function()
            self.idle = 0
        end)
        game:react("damage", 10, function(hit)
            if hit.source == self.entity and table.find(hit.types, "energy") then
                game:command("add_energy", { amount = self:param("energy"), source = self.entity })
            end
        end)
    end,

    on_tick = function(self, game)
        self.idle += 1
        if self.idle >= self:param("idle") and self:effect("electrified") == nil then
            game:apply_effect(self, "electrified", {
                shots = 1,
                magnitude = self:param("charge"),
                source = self.entity,
            })
        end
    end,
}
