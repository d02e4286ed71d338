CREATE TABLE "user_devices" (
	"user_id" uuid NOT NULL,
	"device_key" text NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "user_devices_user_id_device_key_pk" PRIMARY KEY("user_id","device_key")
);
