-- The Hub: attackers reaching it cost hull, but at most `hull_per_wave` in one wave. A boss
-- still takes everything, and hull lost to anything but attackers is not capped.

return {
    on_placed = function(self, game)
        self.lost = 0
        game:react("wave_started", 10, function()
            self.lost = 0
        end)
        game:modify("damage_hull", -10, function(loss)
            if loss.attacker == nil or loss.attacker:size() == "boss" then
                return
            end
            local room = self:param("hull_per_wave") - self.lost
            if room <= 0 then
                return false
            end
            loss.amount = math.min(loss.amount, room)
        end)
        game:react("damage_hull", 10, function(loss)
            if loss.attacker ~= nil then
                self.lost += loss.amount
            end
        end)
    end,
}
