-- A pool whose last prize is paid (or that has prizes again) changes the landing page's headline prize:
-- the public data's version moves then, once per pool, so no page says "up to" a prize that is gone.
CREATE TRIGGER `allocations_public_paid_out` AFTER UPDATE OF `paid` ON `allocations` WHEN (old.`paid` < old.`count`) <> (new.`paid` < new.`count`) BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `key` = 'public'; END;
