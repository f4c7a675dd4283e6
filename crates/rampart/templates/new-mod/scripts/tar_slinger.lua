-- Tar Slinger: a hit puts this mod's own `tarred` effect on the attacker, and a modifier of the
-- `speed` query slows every attacker that this tower has tarred (docs/modding/lua-api.md).

return {
    -- Called when the tower is built. What it registers here belongs to the tower and goes
    -- when the tower is removed, so the tar stops slowing then too.
    on_placed = function(self, game)
        -- A reaction: after one of this tower's hits has landed, (re)tar the target.
        game:react("damage", 10, function(hit)
            if hit.source == self.entity and hit.target:alive() then
                game:apply_effect(hit.target, "tarred", {
                    ticks = self:param("tar_ticks"),
                    source = self.entity,
                })
            end
        end)

        -- A modifier: the game asks every attacker's speed every tick. Only tar from this
        -- tower counts, so two Tar Slingers do not slow an attacker twice.
        game:modify("speed", -10, function(speed, attacker)
            local tar = attacker:effect("tarred")
            if tar ~= nil and tar.source == self.entity then
                return speed * (1 - self:param("slow"))
            end
        end)
    end,
}
