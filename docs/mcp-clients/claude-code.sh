# without authentication (the local sandbox of `npm start`)
claude mcp add --transport http nexthink http://127.0.0.1:5678/mcp/nexthink
# with Bearer Auth on the MCP Server Trigger
claude mcp add --transport http nexthink https://n8n.example.com/mcp/nexthink --header "Authorization: Bearer <your token>"
