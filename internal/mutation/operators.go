package mutation

import (
	"go/ast"
	"go/token"
)

// The operators: each token maps to the replacements tried for it.
var (
	relational = map[token.Token][]string{
		token.LSS: {"<=", ">="}, token.LEQ: {"<", ">"},
		token.GTR: {">=", "<="}, token.GEQ: {">", "<"},
		token.EQL: {"!="}, token.NEQ: {"=="},
	}
	arithmetic = map[token.Token][]string{
		token.ADD: {"-"}, token.SUB: {"+"}, token.MUL: {"/"}, token.QUO: {"*"}, token.REM: {"*"},
		token.ADD_ASSIGN: {"-="}, token.SUB_ASSIGN: {"+="},
		token.SHL: {">>"}, token.SHR: {"<<"}, token.AND: {"|"}, token.OR: {"&"},
	}
	logical = map[token.Token][]string{token.LAND: {"||"}, token.LOR: {"&&"}}
)

type collector struct {
	fset *token.FileSet
	src  []byte
	name string
	out  []Mutant
}

func (c *collector) add(op string, pos, end token.Pos, repl string) {
	p := c.fset.Position(pos)
	start, stop := p.Offset, c.fset.Position(end).Offset
	c.out = append(c.out, Mutant{
		File: c.name, Line: p.Line, Col: p.Column, Operator: op,
		Old: string(c.src[start:stop]), New: repl, Start: start, End: stop,
	})
}

func (c *collector) addToken(op string, pos token.Pos, tok token.Token, repls []string) {
	for _, r := range repls {
		c.add(op, pos, pos+token.Pos(len(tok.String())), r)
	}
}

func (c *collector) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.BinaryExpr:
		if r, ok := relational[n.Op]; ok {
			c.addToken("relational", n.OpPos, n.Op, r)
		} else if r, ok := arithmetic[n.Op]; ok {
			c.addToken("arithmetic", n.OpPos, n.Op, r)
		} else if r, ok := logical[n.Op]; ok {
			c.addToken("logical", n.OpPos, n.Op, r)
		}
	case *ast.AssignStmt:
		if r, ok := arithmetic[n.Tok]; ok {
			c.addToken("arithmetic", n.TokPos, n.Tok, r)
		}
	case *ast.IncDecStmt:
		repl := "--"
		if n.Tok == token.DEC {
			repl = "++"
		}
		c.addToken("increment", n.TokPos, n.Tok, []string{repl})
	case *ast.Ident:
		switch n.Name {
		case "true":
			c.add("boolean", n.Pos(), n.End(), "false")
		case "false":
			c.add("boolean", n.Pos(), n.End(), "true")
		}
	case *ast.BasicLit:
		if n.Kind == token.INT {
			switch n.Value {
			case "0":
				c.add("constant", n.Pos(), n.End(), "1")
			case "1":
				c.add("constant", n.Pos(), n.End(), "0")
			}
		}
	case *ast.IfStmt:
		c.negate(n.Cond)
	case *ast.ForStmt:
		if n.Cond != nil {
			c.negate(n.Cond)
		}
	}
	return true
}

// negate wraps a condition in !( ).
func (c *collector) negate(cond ast.Expr) {
	start, end := c.fset.Position(cond.Pos()).Offset, c.fset.Position(cond.End()).Offset
	c.add("negation", cond.Pos(), cond.End(), "!("+string(c.src[start:end])+")")
}
