-- Protectors: where one dies, a bubble of `radius` tiles stands for `ticks` ticks. Shots that fly
-- (projectiles and shells) fired from outside it cannot hit the attackers inside.

return {
    on_death = function(self, game)
        local x, y = self:position()
        game:raise_barrier(x, y, self:param("radius"), self:param("ticks"))
    end,
}
