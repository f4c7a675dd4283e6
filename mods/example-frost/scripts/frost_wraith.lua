-- Frost Wraith: every `every` ticks, each attacker within `radius` tiles (the wraith too) gets
-- the built-in `shield` effect, absorbing up to `ice` damage (not HP loss) for `lasts` ticks.
-- A fresh coat replaces whatever is left of the old one.

local function coat(self, game)
    local x, y = self:position()
    for _, attacker in game:attackers_near(x, y, self:param("radius")) do
        game:apply_effect(attacker, "shield", {
            ticks = self:param("lasts"),
            magnitude = self:param("ice"),
            stacking = "replace",
            source = self.entity,
        })
    end
end

return {
    on_spawn = function(self, game)
        coat(self, game)
        self.next = game:tick() + self:param("every")
    end,

    on_tick = function(self, game)
        if game:tick() >= self.next then
            self.next += self:param("every")
            coat(self, game)
        end
    end,
}
