# The reference host (hosts/api) with every adapter, built from this repository.
# The full node image carries python3, make and g++, which better-sqlite3 needs when no prebuilt
# binary fits; the host selects its store and event adapters from the environment at start-up.
FROM node:20-bookworm

WORKDIR /app

# Sources first: the root `prepare` script builds during `npm ci`, so it needs them.
COPY . .
RUN npm ci && npm run build \
  && mkdir -p /app/data && chown node:node /app/data

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
USER node
EXPOSE 3000 2525

CMD ["node", "hosts/api/dist/main.js"]
