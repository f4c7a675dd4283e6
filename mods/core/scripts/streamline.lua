-- Streamline: every use improves the player's other blueprints for the rest of the battle. The
-- modifiers are registered once, when the script loads, so they belong to the mod and outlast
-- the ability itself (which ends with its wave); each use only counts up.

local uses = 0
local own, discount, growth, speedup, min_interval

local function improves(stat)
    return uses > 0 and stat.blueprint ~= own
end

game:modify("blueprint_cost", -20, function(cost, stat)
    if improves(stat) then
        -- Only materials come off, and never below nothing: an ability paid for in energy stays
        -- paid for (the thesis's playtest found Streamline could make abilities free).
        return { materials = math.max(0, cost.materials - discount * uses), energy = cost.energy }
    end
end)

-- Multipliers run late (50), after flat bonuses. Powers by math.pow, which is the same on every
-- system; `^` is the C library's (docs/modding/limits.md).
for _, chain in { "range", "radius" } do
    game:modify(chain, 50, function(value, stat)
        if improves(stat) then
            return value * math.pow(1 + growth, uses)
        end
    end)
end

game:modify("interval", 50, function(interval, stat)
    if improves(stat) then
        -- Down to `min_interval`, but an interval already shorter stays as it is.
        return math.max(interval * math.pow(1 - speedup, uses), math.min(interval, min_interval))
    end
end)

return {
    on_placed = function(self, game)
        own = self:type()
        discount = self:param("discount")
        growth = self:param("growth")
        speedup = self:param("speedup")
        min_interval = self:param("min_interval")
        uses += 1
    end,
}
