package main

import (
	"net/http"

	"dyno.local/scenarios/dyno"

	"github.com/gin-gonic/gin"
)

// validationQuery is the validation scenario's rules as Gin binding tags, checked by Gin's validator
// (go-playground/validator): `number` an integer within JavaScript's safe range, `text` at least
// dyno.TextMinLength (5) characters, both required. A pointer, so that number=0 counts as present.
type validationQuery struct {
	Number *int64 `form:"number" binding:"required,min=-9007199254740991,max=9007199254740991"`
	Text   string `form:"text" binding:"required,min=5"`
}

// answer sends a data source's value as JSON, or an error as a bare 500 (Gin's c.AbortWithError).
func answer[T any](c *gin.Context, value T, err error) {
	if err != nil {
		_ = c.AbortWithError(http.StatusInternalServerError, err)
		return
	}
	c.JSON(http.StatusOK, value)
}

// newApp builds the Gin engine with the whole dyno contract (the createApp of the Node SUTs). It is not
// listening yet. gin.New() with only Gin's recovery middleware: gin.Default() would add the request logger.
func newApp(data *dyno.DataSources) *gin.Engine {
	gin.SetMode(gin.ReleaseMode)
	app := gin.New()
	// Gin's own recovery answers a panic with a bare 500. Its writer is nil: it logs nothing (no stack
	// trace on stderr per error), as logging is off in every SUT.
	app.Use(gin.RecoveryWithWriter(nil))

	app.GET("/plaintext", func(c *gin.Context) { c.String(http.StatusOK, dyno.HelloText) })
	app.GET("/json", func(c *gin.Context) { c.JSON(http.StatusOK, dyno.HelloMessage()) })
	app.GET("/users/:userId/posts/:postId", func(c *gin.Context) {
		c.JSON(http.StatusOK, dyno.RouteParams{UserID: c.Param("userId"), PostID: c.Param("postId")})
	})
	app.POST("/echo", func(c *gin.Context) {
		var body any
		if err := c.ShouldBindJSON(&body); err != nil {
			c.AbortWithStatusJSON(http.StatusBadRequest, gin.H{"error": err.Error()})
			return
		}
		c.JSON(http.StatusOK, body)
	})
	app.GET("/fibonacci", func(c *gin.Context) { c.JSON(http.StatusOK, dyno.ComputeFibonacci()) })
	app.GET("/error/:flag", func(c *gin.Context) { c.JSON(http.StatusOK, dyno.ErrorOrOk(c.Param("flag"))) })
	app.GET("/validation", func(c *gin.Context) {
		var query validationQuery
		if err := c.ShouldBindQuery(&query); err != nil {
			c.AbortWithStatusJSON(http.StatusBadRequest, gin.H{"error": err.Error()})
			return
		}
		c.JSON(http.StatusOK, dyno.ValidationResult{Number: *query.Number, Text: query.Text})
	})
	app.GET("/redis", func(c *gin.Context) {
		message, err := data.RedisMessage(c.Request.Context())
		answer(c, message, err)
	})
	app.GET("/sqlite", func(c *gin.Context) {
		row, err := data.SQLiteWorld(c.Request.Context())
		answer(c, row, err)
	})
	app.GET("/postgres", func(c *gin.Context) {
		row, err := data.PostgresWorld(c.Request.Context())
		answer(c, row, err)
	})
	// WebSocket echo through gorilla/websocket, as Gin's own examples upgrade: on the context's writer and request.
	app.GET(dyno.WebSocketPath, func(c *gin.Context) { dyno.EchoWebSocket(c.Writer, c.Request) })
	for _, route := range dyno.ExtraRoutes {
		app.Handle(route.Method, route.Path, func(c *gin.Context) {
			params := make(map[string]string, len(c.Params))
			for _, param := range c.Params {
				params[param.Key] = param.Value
			}
			c.JSON(http.StatusOK, dyno.ExtraRouteBody(route.Path, params))
		})
	}
	return app
}
