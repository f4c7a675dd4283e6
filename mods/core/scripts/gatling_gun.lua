-- Gatling guns spin up: the interval starts `slow` times the blueprint's and shortens evenly to
-- it over `spin_up` ticks of having a target. `cool_down` ticks without a target stop the
-- barrels, and the spin-up starts over.

return {
    on_placed = function(self, game)
        self.spin = 0
        self.idle = 0
        self:modify("interval", 10, function(interval)
            local left = 1 - math.min(self.spin / self:param("spin_up"), 1)
            return interval * (1 + (self:param("slow") - 1) * left)
        end)
    end,

    on_tick = function(self, game)
        if self:target() ~= nil then
            self.spin += 1
            self.idle = 0
        else
            self.idle += 1
            if self.idle >= self:param("cool_down") then
                self.spin = 0
            end
        end
    end,
}
