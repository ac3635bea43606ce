// The data sources of the database scenarios, opened once at start: the Go counterpart of
// scenarios/src/data/open-data-sources.js. REDIS_URL: go-redis; SQLITE_PATH: mattn/go-sqlite3 (the C
// SQLite through cgo, read-only); DATABASE_URL: a pgx pool of PG_POOL_SIZE connections. Each client makes
// one round trip first, so a wrong URL stops the SUT at start with a message that names the variable.

package dyno

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"regexp"
	"runtime"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" database/sql driver
	"github.com/redis/go-redis/v9"
)

// DefaultPGPoolSize is the PostgreSQL pool size when PG_POOL_SIZE does not say (DEFAULT_PG_POOL_SIZE).
const DefaultPGPoolSize = 10

// connectTimeout bounds opening a connection, as CONNECT_TIMEOUT_MS does for the Node clients.
const connectTimeout = 5 * time.Second

// The world table and the Redis key, as scenarios/src/data/world.js defines them.
const (
	WorldRowCount      = 10_000
	RedisMessageKey    = "dyno:message"
	worldQuerySQLite   = "SELECT id, randomnumber FROM world WHERE id = ?"
	worldQueryPostgres = "SELECT id, randomnumber FROM world WHERE id = $1"
)

// WorldRow is one row of the world table, answered as {"id":…,"randomNumber":…}.
type WorldRow struct {
	ID           int32 `json:"id"`
	RandomNumber int32 `json:"randomNumber"`
}

// RedisMessage is the redis scenario's body; a missing key answers {"message":null}, as ioredis gives null.
type RedisMessage struct {
	Message *string `json:"message"`
}

// DataSources holds the clients the environment named; a scenario whose variable was absent returns an error.
type DataSources struct {
	redis       *redis.Client
	sqlite      *sql.DB
	sqliteWorld *sql.Stmt
	postgres    *pgxpool.Pool
}

// randomWorldID is a uniformly random id in 1..WorldRowCount: a new row for every request.
func randomWorldID() int32 {
	return 1 + rand.Int32N(WorldRowCount)
}

func notConfigured(variable string) error {
	return fmt.Errorf("%s is not set: this SUT was started without that data source", variable)
}

var passwordInURL = regexp.MustCompile(`//([^:@/]+):[^@/]*@`)

// unreachable names the variable and its URL (password masked) in a start failure.
func unreachable(variable, rawURL string, err error) error {
	return fmt.Errorf("cannot reach %s=%s: %w", variable, passwordInURL.ReplaceAllString(rawURL, "//$1:***@"), err)
}

// OpenDataSources opens, once at start, a client for each data source that getenv names.
func OpenDataSources(ctx context.Context, getenv func(string) string) (*DataSources, error) {
	poolSize := DefaultPGPoolSize
	if raw := getenv("PG_POOL_SIZE"); raw != "" {
		parsed, err := strconv.Atoi(raw)
		if err != nil || parsed < 1 {
			return nil, fmt.Errorf("PG_POOL_SIZE must be a whole number ≥ 1, got %q", raw)
		}
		poolSize = parsed
	}
	sources := &DataSources{}
	opened := func(err error) (*DataSources, error) {
		sources.Close()
		return nil, err
	}

	if raw := getenv("REDIS_URL"); raw != "" {
		options, err := redis.ParseURL(raw)
		if err != nil {
			return opened(fmt.Errorf("REDIS_URL is not a Redis URL: %w", err))
		}
		options.DialTimeout = connectTimeout
		sources.redis = redis.NewClient(options)
		if err := roundTrip(ctx, func(ctx context.Context) error { return sources.redis.Ping(ctx).Err() }); err != nil {
			return opened(unreachable("REDIS_URL", raw, err))
		}
	}

	if path := getenv("SQLITE_PATH"); path != "" {
		// mode=ro: read-only, and the file must exist (better-sqlite3's readonly + fileMustExist).
		db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro")
		if err != nil {
			return opened(fmt.Errorf("SQLITE_PATH=%s: %w", path, err))
		}
		sources.sqlite = db
		// database/sql keeps 2 idle connections by default: under 100 concurrent requests it would open
		// and close a SQLite connection per query. One connection per CPU, all kept open.
		connections := runtime.GOMAXPROCS(0)
		db.SetMaxOpenConns(connections)
		db.SetMaxIdleConns(connections)
		// Preparing reads the schema: a missing file or an unseeded database stops the start here.
		statement, err := db.PrepareContext(ctx, worldQuerySQLite)
		if err != nil {
			return opened(fmt.Errorf("cannot read SQLITE_PATH=%s: %w", path, err))
		}
		sources.sqliteWorld = statement
	}

	if raw := getenv("DATABASE_URL"); raw != "" {
		config, err := pgxpool.ParseConfig(raw)
		if err != nil {
			return opened(fmt.Errorf("DATABASE_URL is not a PostgreSQL URL: %s", passwordInURL.ReplaceAllString(err.Error(), "//$1:***@")))
		}
		config.MaxConns = int32(poolSize)
		config.ConnConfig.ConnectTimeout = connectTimeout
		pool, err := pgxpool.NewWithConfig(ctx, config)
		if err != nil {
			return opened(unreachable("DATABASE_URL", raw, err))
		}
		sources.postgres = pool
		if err := roundTrip(ctx, pool.Ping); err != nil {
			return opened(unreachable("DATABASE_URL", raw, err))
		}
	}
	return sources, nil
}

// roundTrip runs a client's first request, bounded by the connect timeout.
func roundTrip(ctx context.Context, probe func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	return probe(ctx)
}

// RedisMessage is one `GET dyno:message`.
func (s *DataSources) RedisMessage(ctx context.Context) (RedisMessage, error) {
	if s.redis == nil {
		return RedisMessage{}, notConfigured("REDIS_URL")
	}
	value, err := s.redis.Get(ctx, RedisMessageKey).Result()
	if errors.Is(err, redis.Nil) {
		return RedisMessage{}, nil
	}
	if err != nil {
		return RedisMessage{}, err
	}
	return RedisMessage{Message: &value}, nil
}

// SQLiteWorld is one query of the world table for a random id, through the prepared statement.
func (s *DataSources) SQLiteWorld(ctx context.Context) (WorldRow, error) {
	if s.sqliteWorld == nil {
		return WorldRow{}, notConfigured("SQLITE_PATH")
	}
	var row WorldRow
	err := s.sqliteWorld.QueryRowContext(ctx, randomWorldID()).Scan(&row.ID, &row.RandomNumber)
	return row, worldRowError(err)
}

// PostgresWorld is one query of the world table for a random id through the pool (pgx prepares and
// caches the statement per connection, as the pg client's named statement does).
func (s *DataSources) PostgresWorld(ctx context.Context) (WorldRow, error) {
	if s.postgres == nil {
		return WorldRow{}, notConfigured("DATABASE_URL")
	}
	var row WorldRow
	err := s.postgres.QueryRow(ctx, worldQueryPostgres, randomWorldID()).Scan(&row.ID, &row.RandomNumber)
	return row, worldRowError(err)
}

func worldRowError(err error) error {
	if errors.Is(err, sql.ErrNoRows) || errors.Is(err, pgx.ErrNoRows) {
		return errors.New("no world row for that id: the world table is not seeded")
	}
	return err
}

// Close closes every client that was opened.
func (s *DataSources) Close() {
	if s.redis != nil {
		_ = s.redis.Close()
	}
	if s.sqliteWorld != nil {
		_ = s.sqliteWorld.Close()
	}
	if s.sqlite != nil {
		_ = s.sqlite.Close()
	}
	if s.postgres != nil {
		s.postgres.Close()
	}
}
