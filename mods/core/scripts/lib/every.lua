-- Doing something every `every` ticks (the `every` in the entity's `params`), the first time
-- `every` ticks after it appeared.

local every = {}

-- Starts the clock; use it as the `on_spawn` hook, or call it from there.
function every.start(self, game)
    self.next = game:tick() + self:param("every")
end

-- Whether the time has come this tick; if so, the clock is wound on to the next time.
function every.due(self, game)
    if game:tick() < self.next then
        return false
    end
    self.next += self:param("every")
    return true
end

return every
