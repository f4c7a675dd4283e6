-- Hits that scripts deal themselves, as the blueprint's own: its damage (through the
-- `hit_damage` query, so bonuses apply) and its damage types, with the entity as the source.

local hits = {}

-- Hits `target` once, as `self`'s blueprint does; returns the final payload, or nil if a
-- modifier cancelled the hit.
function hits.strike(self, game, target)
    return game:command("damage", {
        target = target,
        amount = self:query("hit_damage"),
        types = game:blueprint(self:type()).damage_type,
        source = self.entity,
    })
end

return hits
