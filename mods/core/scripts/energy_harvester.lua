-- Energy Harvesters: whenever the player gains materials, from anywhere, they also gain `share`
-- of that much energy.

return {
    on_placed = function(self, game)
        game:react("add_materials", 10, function(gain)
            if gain.amount > 0 then
                game:command("add_energy", { amount = gain.amount * self:param("share"), source = self.entity })
            end
        end)
    end,
}
