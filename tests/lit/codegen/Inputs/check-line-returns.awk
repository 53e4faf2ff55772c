# Checks that every `#line M "FILE"` names the line after it (M = its own line + 1).
#   awk -f check-line-returns.awk -v file=NAME.cpp NAME.cpp
$1 == "#line" && $3 == "\"" file "\"" {
  n++
  if ($2 != NR + 1)
    print "wrong: line " NR ": " $0
}
END { print "checked " n " directives back to " file }
