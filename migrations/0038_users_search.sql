-- The admin's user search (docs/decisions/0341): a trigram full-text index over each user's e-mail
-- and name, so "contains" searches of 3 characters or more read the index, not every user.
-- Its rowid is the user's rowid; kept by triggers on users (insert, e-mail change, delete) and
-- profiles (the name). A profile is inserted after its user (foreign key), so the user's row exists.
CREATE VIRTUAL TABLE `users_search` USING fts5(email, full_name, tokenize='trigram');--> statement-breakpoint
CREATE TRIGGER `users_search_ai` AFTER INSERT ON `users` BEGIN
  INSERT INTO users_search(rowid, email, full_name) VALUES (new.rowid, new.email, '');
END;--> statement-breakpoint
CREATE TRIGGER `users_search_au` AFTER UPDATE OF email ON `users` BEGIN
  UPDATE users_search SET email = new.email WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `users_search_ad` AFTER DELETE ON `users` BEGIN
  DELETE FROM users_search WHERE rowid = old.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `users_search_profile_ai` AFTER INSERT ON `profiles` BEGIN
  UPDATE users_search SET full_name = coalesce(new.full_name, '') WHERE rowid = (SELECT rowid FROM users WHERE id = new.user_id);
END;--> statement-breakpoint
CREATE TRIGGER `users_search_profile_au` AFTER UPDATE OF full_name ON `profiles` BEGIN
  UPDATE users_search SET full_name = coalesce(new.full_name, '') WHERE rowid = (SELECT rowid FROM users WHERE id = new.user_id);
END;--> statement-breakpoint
INSERT INTO users_search(rowid, email, full_name) SELECT users.rowid, users.email, coalesce(profiles.full_name, '') FROM users LEFT JOIN profiles ON profiles.user_id = users.id;
