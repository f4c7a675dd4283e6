-- Auras: every `every` ticks (lib/every), something done within `radius` tiles of the entity;
-- both numbers are the entity's `params`. The hooks stay in each script, so what they cost
-- and any error in them count as that script's.

local every = require("lib/every")

local aura = {}

-- Starts the clock; use it as the `on_spawn` hook, or call it from there.
aura.start = every.start

-- Where the entity is and its `radius`, if its time has come this tick; nothing otherwise. The
-- player sees each pulse: its reach as a ring in `colour` (white if not given), for 12 ticks.
function aura.pulse(self, game, colour)
    if not every.due(self, game) then
        return nil
    end
    local x, y = self:position()
    local radius = self:param("radius")
    game:draw_ring(x, y, radius, { colour = colour or "white", ticks = 12, alpha = 0.7 })
    return x, y, radius
end

-- What `aura.attackers` gives between pulses.
local NONE = table.freeze({})

-- The attackers within the aura, nearest first, if its time has come this tick; none otherwise.
-- `colour` is the pulse's, as for `aura.pulse`.
function aura.attackers(self, game, colour)
    local x, y, radius = aura.pulse(self, game, colour)
    if x == nil then
        return NONE
    end
    return game:attackers_near(x, y, radius)
end

return aura
