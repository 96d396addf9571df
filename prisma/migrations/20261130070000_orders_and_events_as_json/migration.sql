-- Submitted orders and logged live events are written once and read whole, never queried inside:
-- kept as JSON text, which is smaller than its binary form and costs no conversion when stored.
ALTER TABLE "order_submissions" ALTER COLUMN "orders" SET DATA TYPE JSON USING "orders"::json;
ALTER TABLE "live_events" ALTER COLUMN "event" SET DATA TYPE JSON USING "event"::json;
