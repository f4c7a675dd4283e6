-- Matter Replicators: production grows by `growth` after every wave, once the wave's production
-- is in (the game produces at priority 0 of `wave_finished`).

return {
    on_placed = function(self, game)
        self.extra = 0
        self:modify("material_production", -10, function(amount)
            return amount + self.extra
        end)
        game:react("wave_finished", 10, function()
            self.extra += self:param("growth")
        end)
    end,
}
