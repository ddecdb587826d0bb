-- An application's own first migration, for FlywayMigrationTest: its V1 beside hookledger's.
CREATE TABLE account (customer text PRIMARY KEY, paid bigint NOT NULL DEFAULT 0);
INSERT INTO account (customer) VALUES ('cus_ada');
