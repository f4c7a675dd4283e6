-- Holo-Siphon: used on a tile, it hits every attacker in range at once, then stays there as a
-- tower for its duration (the game ends it after `duration_waves`). The tower locks on to the
-- nearest attacker in range; if that attacker stays in range for `delay` ticks it takes the
-- damage, and the next lock starts once `interval` ticks have passed since the last one began.
-- An attacker that leaves range (or dies) breaks the lock, and a new one starts at once.

local hits = require("lib/hits")

local function in_range(self, attacker)
    local x, y = self:position()
    local ax, ay = attacker:position()
    return math.sqrt((ax - x) ^ 2 + (ay - y) ^ 2) <= self:query("range")
end

return {
    on_placed = function(self, game)
        local x, y = self:position()
        for _, attacker in game:attackers_near(x, y, self:query("range")) do
            if attacker:alive() then
                hits.strike(self, game, attacker)
            end
        end
        self.locked = nil
        self.held = 0
        self.rest = 0
    end,

    on_tick = function(self, game)
        if self.rest > 0 then
            self.rest -= 1
            return
        end
        local target = self.locked
        if target ~= nil and not (target:alive() and in_range(self, target)) then
            target = nil
        end
        if target == nil then
            local x, y = self:position()
            target = game:attackers_near(x, y, self:query("range"))[1]
            self.held = 0
        end
        self.locked = target
        if target == nil then
            return
        end
        self.held += 1
        if self.held >= self:query("delay") then
            hits.strike(self, game, target)
            self.locked = nil
            self.rest = self:query("interval") - self:query("delay")
        end
    end,
}
