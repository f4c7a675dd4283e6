-- Orbital Laser: a line across the whole world, at right angles to the laser's facing, starts
-- where the laser is used and moves in the facing direction at `speed` tiles per second until
-- the laser's duration is over. Every attacker within `width` / 2 of the line as it passes is
-- hit once.

-- Facings by rotation: quarter turns clockwise from north.
local FACING = { [0] = { 0, 1 }, [1] = { 1, 0 }, [2] = { 0, -1 }, [3] = { -1, 0 } }
local TICKS_PER_SECOND = 20

local hits = require("lib/hits")

return {
    on_placed = function(self, game)
        self.x, self.y = self:position()
        self.facing = FACING[self:rotation()]
        self.swept = 0
        self.hit = {}
    end,

    on_tick = function(self, game)
        local half = self:param("width") / 2
        local from = self.swept - half
        self.swept += self:param("speed") / TICKS_PER_SECOND
        for _, attacker in game:entities("attacker") do
            if attacker:alive() and not self.hit[attacker] then
                local ax, ay = attacker:position()
                local along = (ax - self.x) * self.facing[1] + (ay - self.y) * self.facing[2]
                if along >= from and along <= self.swept + half then
                    self.hit[attacker] = true
                    hits.strike(self, game, attacker)
                end
            end
        end
    end,
}
