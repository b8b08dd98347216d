/// The licence of each model file Framelab knows, by SHA-256, so a run records under which
/// terms its detections were made (the `model_licence` column of `elements`). Files from
/// Datasets/models/README.md, and the cascades of Debian's opencv-data 4.6 (the licence their
/// XML header states; Debian's copyright file gives `data/*` as BSD-3-Clause). A file not
/// listed — a model of your own, another version — has no known licence: "".
public enum ModelLicences {
    static let intel = "Intel License Agreement for OpenCV (BSD-3-Clause style)"

    /// SHA-256 (lowercase hex) → licence.
    public static let bySHA256: [String: String] = [
        // Datasets/models (scripts/fetch-models.sh checks the same sums).
        "34d850436faf158ca4e690533ba27c1decf29653559299d80db9274146332ca7": "BSD-3-Clause",  // res10_deploy.prototxt
        "2a56a11a57a4a295956b0660b4a3d76bbdca2206c4961cea8efe7d95c7cb2f2d": "BSD-3-Clause",  // res10 caffemodel
        "09189deaaf8646c5c51a68447e3c744ea1e211798155d4728c20507b9f5aefbc": "MIT",  // centerface.onnx
        "07a69013008e612c4d2ad31b09645038911dfec67411cd68ccd0da55ca291a35": "MIT",  // mtcnn/pnet.onnx
        "de0f837f02b57e1e85959c3ae5c46bcd16162e6e95be5db8794e3c7c85a89004": "MIT",  // mtcnn/rnet.onnx
        "d80f19b44f72e45dd2b7d01384d56994220f60d9417b2a7fbba9041ef1d75e52": "MIT",  // mtcnn/onet.onnx
        "4cb19393e2fbaf2b1609a9319ad5386618c886a6234ec1b971f3e87c85d87fe6": "CC0-1.0",  // mmod_human_face_detector.dat
        "7fc3c140b563f449ce7cb5bd102ece650681e5bfeffc87efe79272be1932c4f4": "BSD-3-Clause",  // yuface/libfacedetection.so
        "3a7eaece7231911be2fbb1b3e7cb4cb5c2e0f84e0c2bb73739472b5a1feec8c1":
            "GPL-3.0-or-later WITH GCC-exception-3.1",  // yuface.libs/libgomp
        // opencv-data 4.6: haarcascades/
        "71cc64fc305a355dc60067880f6fbbd43dd155bd63ee3844661a1bda34b2fd8c": intel,  // haarcascade_eye
        "e32f9c67935c33e9d1331eb14fa58554ff17835c03742663bcb97a892e936a57": intel,  // haarcascade_eye_tree_eyeglasses
        "ac2bac934ef24284ef8a2b2e9d8e57eef84ac1d6943b4d11e5c9e8584dc069c8": "BSD-3-Clause",  // haarcascade_frontalcatface
        "ffd0d1d28f07d0376c89db4c9845009c2855cc76c8cff763d5331dc9361da854": "BSD-3-Clause",  // haarcascade_frontalcatface_extended
        "6281df13459cc218ff047d02b2ae3859b12ff14a93ffe8952f7b33fad7b9697b": intel,  // haarcascade_frontalface_alt
        "7b0c967d9abbdfbde025eb9c786947d151b6426040d07a8f9562ed8fd90724b4": intel,  // haarcascade_frontalface_alt2
        "0e5ee47ecc13269d54dd7a55f8b53752167c52587720877732388fb078a0480a": intel,  // haarcascade_frontalface_alt_tree
        "0f7d4527844eb514d4a4948e822da90fbb16a34a0bbbbc6adc6498747a5aafb0": intel,  // haarcascade_frontalface_default
        "041745c71eef1b5c86aef224f17ce75b042d33314cc8f6757424f8bd8cd30aa1": "BSD-3-Clause",  // haarcascade_fullbody
        "74c323c78c81475fc9158facbfb866bb0cca06be41f571df47d4ac8d01f9ce4c": intel,  // haarcascade_lefteye_2splits
        "4d1c44bf7a1bc4e204fa25b046ed0acffd7f713cc13fe2958b6977125c60ddea": "BSD-3-Clause",  // haarcascade_licence_plate_rus_16stages
        "1e696e1c7c66c439ae229cfff8871f42037c357e9e1e090a2b59ebc1f8ff5cbb": "BSD-3-Clause",  // haarcascade_lowerbody
        "b39a4a3be45539db146a7fc1d3e761a292c196eb88421185e6a615b3055e612d": intel,  // haarcascade_profileface
        "4cf0d72bea7307e9af7eb99d4acbe15d7101a67c22fcdcfbeefd692ad37cf776": intel,  // haarcascade_righteye_2splits
        "814cb5954682af570e58361f9e5f8b5b513a4112776bb9ecacef9f0e4ca6c2d7": "BSD-3-Clause",  // haarcascade_russian_plate_number
        "4ca1f304eabd0b5ae30180c81acb53e166a5867e5be17b316bd3f32cfdf87d8a": "BSD-3-Clause",  // haarcascade_smile
        "7328ab4fdb1592f53d98d7ea5b1b9d90e01af5d95f212af378c7eb579048bb5f": "BSD-3-Clause",  // haarcascade_upperbody
        // opencv-data 4.6: lbpcascades/
        "392c289fece5ceef6a2050431e5fee399d38c6d2dd3d2f5030760b1047f242b1": "BSD-3-Clause",  // lbpcascade_frontalcatface
        "6f5f20091b0d20311c929bcd8c927074e50bd0ac6424321016c679f43cf5ebcf": "BSD-3-Clause",  // lbpcascade_frontalface
        "7c31331d494f20e216b397ad99d824d92ab91ebb15db3bcda6a2f8e684d238d3": "BSD-3-Clause",  // lbpcascade_frontalface_improved
        "076359afc4ede57e4507f6a6bb5e5c0cbaabaaa41ef514b5f98d01c1bd1d2fff": "BSD-3-Clause",  // lbpcascade_profileface
        "ed9b294b8d7cce1c7114e99c15e1496908ab7e8f5f1f4141f393a70e31998fd9": "BSD-3-Clause",  // lbpcascade_silverware
    ]

    /// The licence of the file with this SHA-256, or "" when Framelab does not know the file.
    public static func licence(sha256: String) -> String {
        bySHA256[sha256.lowercased()] ?? ""
    }
}
