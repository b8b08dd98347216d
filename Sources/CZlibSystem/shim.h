// zlib, for the compressed elements of MATLAB 5 files (Sources/FramelabDatasets/MAT5Inflate.swift).
#include <zlib.h>
