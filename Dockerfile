# The app server. Build: docker build -t diadochi .   (docker-compose.yml runs it with PostgreSQL)
FROM node:20-bookworm-slim

WORKDIR /app

# Dependencies first (cached while only sources change). npm ci runs the postinstall
# step that generates the Prisma client, which needs the schema.
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
RUN npm ci --no-audit --no-fund

COPY . .
# Builds the web client into web/dist (the server serves that folder) and the server into
# one file, dist/server/main.mjs (plain node: faster start, ~80 MB less memory than tsx).
RUN npm run build --if-present && npm run build:server

# A fixed malloc threshold (as in npm start): glibc otherwise raises it after a password hash frees its 32 MiB,
# and keeps ~40 MB of later allocations in its arenas for good (server/README.md, memory).
ENV NODE_ENV=production \
    MALLOC_MMAP_THRESHOLD_=4194304 \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/app/data
EXPOSE 3000
# Without DATABASE_URL the embedded database lives here.
VOLUME ["/app/data"]

HEALTHCHECK --interval=15s --timeout=5s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:' + process.env.PORT + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"

# Node itself as PID 1 (not npm), so SIGTERM reaches the server's graceful shutdown.
# Flags as in npm start: the heap limit, and the database client's WebAssembly kept to its baseline compiler
# (server/README.md, memory).
CMD ["node", "--max-old-space-size=160", "--liftoff-only", "dist/server/main.mjs"]
