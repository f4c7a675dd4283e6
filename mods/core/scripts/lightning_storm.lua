-- Lightning Storm: `strikes` strikes, the first at once and then one every `interval` ticks, each
-- at an attacker picked at random among those within the radius. A strike with nobody in reach
-- is lost. The storm is gone after its last strike.

local hits = require("lib/hits")

local function strike(self, game)
    local x, y = self:position()
    local near = game:attackers_near(x, y, self:query("radius"))
    if #near > 0 then
        hits.strike(self, game, near[math.random(#near)])
    end
    self.strikes += 1
    self.next = game:tick() + self:query("interval")
    if self.strikes >= self:param("strikes") then
        game:remove(self)
    end
end

return {
    on_placed = function(self, game)
        self.strikes = 0
        strike(self, game)
    end,

    on_tick = function(self, game)
        if game:tick() >= self.next then
            strike(self, game)
        end
    end,
}
