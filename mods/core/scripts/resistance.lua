-- Resistances and immunities. The attacker's `params` give, for each damage type, the share of
-- that damage it shrugs off: 0.4 takes 40 % less, 1 is immune. A hit of several types (a Meteor
-- is physical and explosive) is reduced by the smallest share among them: it hurts as much as
-- its most effective part. HP loss never reaches this modifier.

local TYPES = { "physical", "explosive", "energy" }

return {
    on_spawn = function(self, game)
        local shares = {}
        for _, name in TYPES do
            shares[name] = self:param(name) or 0
        end

        -- Before flat blocks such as shields (-10), next to the other multipliers (-40).
        self:modify("damage", -50, function(hit)
            if #hit.types == 0 then
                return
            end
            local share = 1
            for _, name in hit.types do
                share = math.min(share, shares[name] or 0)
            end
            if share >= 1 then
                return false -- immune: the hit does nothing at all
            end
            hit.amount *= 1 - share
        end)
    end,
}
