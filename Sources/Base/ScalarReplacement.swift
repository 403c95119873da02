extension StringProtocol {
    /// This text with every `scalar` replaced by `replacement`, compared scalar by scalar, so a
    /// `"` or `'` before a combining accent is replaced too: what quoting for a CSV cell or a
    /// shell needs (a comparison by `Character` would leave that quote unescaped).
    /// - Complexity: O(n) in the scalars of the text and of the replacements written.
    package func replacing(every scalar: Unicode.Scalar, with replacement: String) -> String {
        var result = String.UnicodeScalarView()
        for each in unicodeScalars {
            if each == scalar { result.append(contentsOf: replacement.unicodeScalars) } else { result.append(each) }
        }
        return String(result)
    }
}
