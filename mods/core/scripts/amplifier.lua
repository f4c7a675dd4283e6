-- Amplifiers: every tower within range hits `bonus` harder. Several Amplifiers add up.

local kinds = {} -- blueprint id → its kind, looked up once

return {
    on_placed = function(self, game)
        local x, y = self:position()
        game:modify("hit_damage", -10, function(damage, stat)
            local tower = stat.entity
            if tower == nil then
                return
            end
            kinds[stat.blueprint] = kinds[stat.blueprint] or game:blueprint(stat.blueprint).kind
            if kinds[stat.blueprint] ~= "tower" then
                return
            end
            local tx, ty = tower:position()
            if math.sqrt((tx - x) ^ 2 + (ty - y) ^ 2) <= self:query("range") then
                return damage + self:param("bonus")
            end
        end)
    end,
}
