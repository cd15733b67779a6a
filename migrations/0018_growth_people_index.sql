DROP INDEX `retention_people_week_idx`;--> statement-breakpoint
CREATE INDEX `retention_people_week_idx` ON `retention_people` (`week`,`source`,`verified`,`approved`,`linked`,`licensed`,`earning`);