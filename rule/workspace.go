package rule

// noWorkspace is the reasoning of a workspace rule given a relative path
// and a transcript without a workspace directory.
const noWorkspace = "the transcript names no workspace directory"
