-- Armored skeletons: shields take `shield_block` off every hit (except HP loss) until the
-- skeleton drops below half HP. Then the shields break for good and the skeleton runs twice as
-- fast. The variants differ only in `shield_block`, set in their RON files.

return {
    on_spawn = function(self, game)
        self.shielded = true
        local block = self:param("shield_block") or 0

        self:modify("damage", -10, function(hit)
            if not self.shielded or table.find(hit.types, "hp_loss") then
                return
            end
            hit.amount -= block
            if hit.amount <= 0 then
                return false -- fully blocked: no damage at all
            end
        end)

        -- A reaction sees the HP after the hit; the shield never comes back once broken.
        self:react("damage", 10, function()
            if self.shielded and self:hp() < self:max_hp() / 2 then
                self.shielded = false
            end
        end)

        self:modify("speed", -100, function(speed)
            if not self.shielded then
                return speed * 2
            end
        end)
    end,
}
